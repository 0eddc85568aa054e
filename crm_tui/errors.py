"""The one error type every layer raises for problems a user can fix."""


class CrmTuiError(Exception):
    """Bad input or state, worded for the person: names the file, line or field."""
