"""The benchmark layer: task families, gold answers, task-set I/O and scoring (no Textual)."""
