# SPDX-License-Identifier: GPL-2.0-only
#
# Sphinx configuration of mlnet's documentation (the pages in this directory).
#
#   sphinx-build -b html doc /tmp/mlnet-doc        (Debian: apt-get install python3-sphinx)
#
# Only Sphinx's built-in roles and directives are used (:doc:, toctree, code-block, figure,
# literalinclude), so no extension is needed.

project = "mlnet"
author = "mlnet developers"
copyright = "mlnet developers, GPL-2.0-only"

root_doc = "index"
master_doc = "index"  # Sphinx < 4
exclude_patterns = []
highlight_language = "none"  # blocks without a language are shown verbatim
html_theme = "alabaster"
