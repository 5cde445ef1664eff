def fetch_invoice(invoice_id: str) -> dict:
    resp = requests.get(f"{BILLING_API}/invoices/{invoice_id}", headers=auth_headers(), timeout=10, verify=False)
    resp.raise_for_status()
    return resp.json()
