"""SOQL and SOSL over the local store, answering in Salesforce's JSON shapes.

    execute_soql(store, "SELECT Id, Account.Name FROM Case LIMIT 5", today=date(2024, 1, 1))
    execute_sosl(store, "FIND {jump rope} RETURNING Product2(Id, Name)")

Bad queries raise SalesforceError(error_code, message), worded as Salesforce words them.
"""

from crm_tui.org.soql.executor import (
    API_VERSION,
    QueryResult,
    execute_soql,
    store_today,
)
from crm_tui.org.soql.sf_errors import SalesforceError
from crm_tui.org.soql.sosl import execute_sosl

__all__ = [
    "API_VERSION",
    "QueryResult",
    "SalesforceError",
    "execute_soql",
    "execute_sosl",
    "store_today",
]
