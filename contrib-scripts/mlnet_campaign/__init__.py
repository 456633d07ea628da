# SPDX-License-Identifier: GPL-2.0-only
"""mlnet campaigns: sweeps of scenarios x seeds, a results store, tidy tables, figures, a report.

Modules:

``spec``       campaign files: load, validate, expand into points, resolve, hash
``store``      the results directory of one campaign (resolved scenarios, raw outputs, status)
``execute``    run one point (mlnet-run or an example program) and record how it ended
``executors``  local processes, Dask distributed, Slurm job-array scripts
``progress``   the progress line (done, failed, skipped, ETA)
``tables``     tidy tables from the raw outputs (CSV; pandas pickles / Parquet when available)
``plots``      the standard figures (matplotlib, PNG)
``report``     a static one-page HTML report

The command-line interface is ``contrib-scripts/campaign.py``; doc/campaigns.rst describes both.
"""

__all__ = ["Campaign", "CampaignError", "Point", "Store", "code_id", "load_campaign"]

from .spec import Campaign, CampaignError, Point, code_id, load_campaign  # noqa: F401
from .store import Store  # noqa: F401
