"""Readers and writers: graph files in, tables and exports out, every write atomic.

``graph_files`` reads edge lists, JSON and graph6; ``export`` writes an analysis as CSV, JSON
or npz through ``table_text`` (the rows as text) and ``table_check`` (a table's own checks);
``atomic`` is the one way a file is written.  The public names are re-exported by
:mod:`catmouse`.
"""
