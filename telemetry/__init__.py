"""What the processes tell their operator: JSON log lines (`telemetry.logs`) and Prometheus
metrics (`telemetry.metrics`), shared by the web, the judging workers and the auditors. It
imports nothing else of ours, so every layer above the engine may use it."""
