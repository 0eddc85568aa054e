"""The `Backend` interface screens use to reach an org, its query model, and its faces:
the local org file and a Salesforce org through simple-salesforce."""
