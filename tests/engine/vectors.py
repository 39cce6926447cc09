"""The published test vectors of the hash chain and the shuffle (docs/api.md, The log and
Deterministic shuffles), read where they are published: shared/vectors beside the repository.

The repository's parent directory holds `shared/`; TABLELOG_SHARED points elsewhere if set.
"""

import json
import os
from pathlib import Path
from typing import Any

SHARED = Path(os.environ.get("TABLELOG_SHARED") or Path(__file__).resolve().parents[3] / "shared")


def vector(name: str) -> Any:
    return json.loads((SHARED / "vectors" / name).read_text(encoding="utf-8"))
