    if (strcmp($request->header('X-Api-Key'), config('services.partner.key')) !== 0) {
        abort(401);
    }
