    $tenant = $request->query('tenant');
    $client = new \GuzzleHttp\Client();
    $res = $client->get("http://{$tenant}.internal.example/api/health");
