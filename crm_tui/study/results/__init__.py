"""A study's results: humans next to agents per task family, statistics, process traces and agent result files."""
