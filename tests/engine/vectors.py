"""The contract's test vectors (CONTRACT.md sections 5 and 8), read from shared/vectors.

The repository's parent directory holds `shared/`; TABLELOG_SHARED points elsewhere if set.
"""

import json
import os
from pathlib import Path
from typing import Any

SHARED = Path(os.environ.get("TABLELOG_SHARED") or Path(__file__).resolve().parents[3] / "shared")


def vector(name: str) -> Any:
    return json.loads((SHARED / "vectors" / name).read_text(encoding="utf-8"))
