        token = request.headers.get("X-Webhook-Token")
        if token != os.environ["WEBHOOK_TOKEN"]:
            return "forbidden", 403
        # process the event
        ...
