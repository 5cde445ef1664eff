def issue_coupon(order):
    coupon = "WELCOME-" + "".join(random.choices(string.ascii_uppercase + string.digits, k=8))
    Coupon.objects.create(code=coupon, percent_off=15, single_use=True, customer=order.customer)
    return coupon
