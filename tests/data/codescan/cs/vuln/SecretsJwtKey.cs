            IssuerSigningKey = new SymmetricSecurityKey(Encoding.UTF8.GetBytes("/RdGFLEJ3NNzLyNymNL3Og1CzB5fGPrwpndK7PpRBRs=")),
