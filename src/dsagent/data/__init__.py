"""Load the user's files (never written) and profile them for prompts."""

from dsagent.data.catalog import Dataset, load_datasets
from dsagent.data.profile import profile_dataset, summarize_datasets

__all__ = ["Dataset", "load_datasets", "profile_dataset", "summarize_datasets"]
