class Config:
    SECRET_KEY = os.environ["SECRET_KEY"]
    WTF_CSRF_ENABLED = True


class TestingConfig(Config):
    TESTING = True
    # the test client posts forms without a token (Flask-WTF's documented setting for tests)
    WTF_CSRF_ENABLED = False
