def search(request):
    term = request.GET.get("q", "")
    products = Product.objects.filter(title__icontains=term)
    return render(request, "search.html", {"products": products})
