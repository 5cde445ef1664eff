    public List<Product> search(@RequestParam String sort) {
        return entityManager.createQuery("SELECT p FROM Product p ORDER BY p." + sort, Product.class).getResultList();
    }
