    $token = (new Parser(new JoseEncoder()))->parse($request->bearerToken());
    $userId = $token->claims()->get('uid');
    Auth::loginUsingId($userId);
