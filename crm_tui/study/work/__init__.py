"""The work of a study: protocols, who gets which item, solving, ratings, invitations, progress and the live view."""
