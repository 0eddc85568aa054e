"""Adjudicating a study's gold: the queue of suspect queries, decisions, corrected task-set
versions and the scores under them."""
