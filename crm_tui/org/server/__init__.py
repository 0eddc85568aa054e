"""The local org as a Salesforce REST endpoint on loopback, and its test certificates."""
