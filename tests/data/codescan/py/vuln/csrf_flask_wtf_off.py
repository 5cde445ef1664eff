app = Flask(__name__)
app.config["SECRET_KEY"] = os.environ["SECRET_KEY"]
app.config["WTF_CSRF_ENABLED"] = False
login_manager.init_app(app)
