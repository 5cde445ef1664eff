byte[] computed = mac.doFinal(body);
if (!MessageDigest.isEqual(computed, Base64.getDecoder().decode(providedSignature))) {
    response.sendError(401);
    return;
}
