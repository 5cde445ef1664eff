function currentUserId(): ?int {
    $jwt = str_replace('Bearer ', '', $_SERVER['HTTP_AUTHORIZATION'] ?? '');
    [$header, $payload, $sig] = explode('.', $jwt);
    $claims = json_decode(base64_decode(strtr($payload, '-_', '+/')), true);
    return $claims['user_id'] ?? null;
}
