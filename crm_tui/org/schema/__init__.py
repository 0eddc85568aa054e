"""What an org is made of: the objects and fields (catalogue), Ids, latent variables, dates."""
