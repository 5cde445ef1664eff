from flask_cors import CORS

app = Flask(__name__)
app.config["SESSION_COOKIE_SAMESITE"] = "None"
CORS(app, resources={r"/api/*": {"origins": "*"}}, supports_credentials=True)
