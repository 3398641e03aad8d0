from .prizes import *  # noqa: F401,F403
from .records import *  # noqa: F401,F403
from .tournament import *  # noqa: F401,F403
