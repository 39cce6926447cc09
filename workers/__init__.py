"""RQ workers of tablelog: judging submissions and auditing games, configured by REDIS_URL."""
