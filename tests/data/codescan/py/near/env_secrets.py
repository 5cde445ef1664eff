import os

OPENAI_API_KEY = os.environ["OPENAI_API_KEY"]
AWS_SECRET_ACCESS_KEY = os.getenv("AWS_SECRET_ACCESS_KEY")
DATABASE_PASSWORD = os.environ.get("DB_PASSWORD", "")
API_KEY_HEADER = "X-API-Key"
# Example: OPENAI_API_KEY="sk-..." (set it in your shell, never here)
AWS_EXAMPLE_KEY_ID = "AKIAIOSFODNN7EXAMPLE"
