"""gin3d: Gin Rummy on a 3D table."""

__version__ = "0.1.0"
