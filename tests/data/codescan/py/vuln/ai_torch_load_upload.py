@app.post("/models")
def upload_model():
    f = request.files["checkpoint"]
    state = torch.load(f)
    model.load_state_dict(state)
    return "", 204
