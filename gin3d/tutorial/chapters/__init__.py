"""The tutorial's chapters, one JSON file each (``NN_name.json``), loaded by
``gin3d.tutorial.load_chapters``. The file format is described in docs/tutorial.md."""
