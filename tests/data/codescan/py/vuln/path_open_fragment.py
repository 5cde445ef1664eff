    name = request.form['name']
    with open('/var/app/reports/' + name, 'r') as fh:
        content = fh.read()
    return content
