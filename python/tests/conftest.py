import sys
from pathlib import Path

# The helpers beside the tests (oracle, servers) import as top-level modules.
sys.path.insert(0, str(Path(__file__).resolve().parent))
