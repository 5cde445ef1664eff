import json,http.client,threading,time
code=open('/tmp/auditE/p_half.py').read()
def big():
    try:
        c=http.client.HTTPConnection('127.0.0.1',18452,timeout=60); c.request('POST','/api/vibe-code/scan',body=json.dumps({'code':code,'language':'py'}),headers={'Content-Type':'application/json'}); r=c.getresponse(); print('client got',r.status,len(r.read()))
    except Exception as e: print('client EXC',e)
ts=[threading.Thread(target=big) for _ in range(4)]
[t.start() for t in ts]; [t.join() for t in ts]
