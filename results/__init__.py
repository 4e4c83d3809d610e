"""The results layer: finishing matches, committing results, moving ratings, then telling the features above."""
