        signature = request.headers.get("X-Signature", "")
        digest = hmac.new(WEBHOOK_SECRET, request.get_data(), hashlib.sha256).hexdigest()
        if signature == digest:
            process_event(request.get_json())
