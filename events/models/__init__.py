from .discounts import *  # noqa: F401,F403
from .entries import *  # noqa: F401,F403
from .event import *  # noqa: F401,F403
from .guests import *  # noqa: F401,F403
from .questions import *  # noqa: F401,F403
