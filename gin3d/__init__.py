"""gin3d: Gin Rummy on a 3D table."""

from functools import cache

__version__ = "0.1.0"  # the one place the version is written (pyproject.toml reads it)


@cache
def version() -> str:
    """The version of the running gin3d: the installed package's metadata, or ``__version__``
    where there is none (a checkout that was never installed, a packaged build)."""
    try:
        from importlib import metadata
    except ImportError:  # a frozen build may leave the module out
        return __version__
    try:
        return metadata.version("gin3d")
    except metadata.PackageNotFoundError:
        return __version__
