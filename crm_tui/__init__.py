"""crm-tui: CRM professionals solve CRMArena tasks in a terminal, next to LLM agents."""

__version__ = "0.1.0"
