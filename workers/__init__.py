"""RQ workers of tablelog: judging submissions and auditing games, configured from the environment."""
