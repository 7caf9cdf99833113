"""placeholder replaced below"""
from .hard import HardPlayer


class ExpertPlayer(HardPlayer):
    level = "expert"
