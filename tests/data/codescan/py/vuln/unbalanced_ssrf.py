@app.route('/proxy')
def proxy():
    target = request.args.get('target')
    resp = requests.get(target, headers={'User-Agent': 'proxy'}
    return Response(resp.content, status=resp.status_code
