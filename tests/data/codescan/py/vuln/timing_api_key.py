def require_api_key(f):
    @wraps(f)
    def wrapper(*args, **kwargs):
        if request.headers.get("X-API-Key") == settings.API_KEY:
            return f(*args, **kwargs)
        return jsonify(error="unauthorized"), 401
    return wrapper
