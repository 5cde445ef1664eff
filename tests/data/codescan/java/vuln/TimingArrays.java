        byte[] computed = mac.doFinal(body);
        if (!Arrays.equals(computed, Base64.getDecoder().decode(providedSignature))) {
            throw new SecurityException("bad signature");
        }
