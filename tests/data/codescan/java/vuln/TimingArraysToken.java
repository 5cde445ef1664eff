byte[] given = request.getHeader("X-Token").getBytes(StandardCharsets.UTF_8);
if (!Arrays.equals(given, expectedToken)) {
    response.sendError(401);
    return;
}
