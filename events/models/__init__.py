from .entries import *  # noqa: F401,F403
from .event import *  # noqa: F401,F403
from .play import *  # noqa: F401,F403
from .prizes import *  # noqa: F401,F403
from .records import *  # noqa: F401,F403
