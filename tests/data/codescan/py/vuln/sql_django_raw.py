def search(request):
    term = request.GET.get("q", "")
    products = Product.objects.raw("SELECT * FROM shop_product WHERE title LIKE '%%" + term + "%%'")
    return render(request, "search.html", {"products": products})
