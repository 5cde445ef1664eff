config = YAML.safe_load(request.body.read, permitted_classes: [Date])
state = JSON.parse(cookies[:state] || '{}')
