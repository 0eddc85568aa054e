"""Errors worded the way Salesforce words them, with its error codes."""

from __future__ import annotations

from crm_tui.errors import CrmTuiError


class SalesforceError(CrmTuiError):
    """A query problem as Salesforce reports it: `errorCode` plus `message`.

    `status` is the HTTP status the REST API answers with (400 for query problems).
    """

    def __init__(self, error_code: str, message: str, status: int = 400):
        super().__init__(f"{error_code}: {message}")
        self.error_code = error_code
        self.message = message
        self.status = status

    def to_json(self) -> list[dict[str, str]]:
        """The REST error body: a JSON list of {message, errorCode}."""
        return [{"message": self.message, "errorCode": self.error_code}]


def positioned(text: str, pos: int, message: str) -> str:
    """Salesforce's message layout: the query line, a caret, `ERROR at Row:r:Column:c`."""
    pos = max(0, min(pos, len(text)))
    row = text.count("\n", 0, pos) + 1
    line_start = text.rfind("\n", 0, pos) + 1
    line_end = text.find("\n", pos)
    line = text[line_start:] if line_end < 0 else text[line_start:line_end]
    column = pos - line_start + 1
    return f"\n{line}\n{' ' * (column - 1)}^\nERROR at Row:{row}:Column:{column}\n{message}"


def malformed(text: str, pos: int, message: str) -> SalesforceError:
    return SalesforceError("MALFORMED_QUERY", positioned(text, pos, message))


def unexpected(text: str, pos: int, token_text: str) -> SalesforceError:
    shown = token_text if token_text == "<EOF>" else f"'{token_text}'"
    return malformed(text, pos, f"unexpected token: {shown}")


def out_of_range(code: str, error: BaseException) -> SalesforceError:
    """A number, date or nesting past what the engine can represent, as a query error."""
    return SalesforceError(
        code, f"A number, date or nesting in the query is out of range ({type(error).__name__})"
    )
