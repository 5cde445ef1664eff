def load_config(text):
    return yaml.safe_load(text)

def restore(raw):
    return json.loads(raw)
