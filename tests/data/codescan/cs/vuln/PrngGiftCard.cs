public string NewGiftCardNumber()
{
    var rng = new Random();
    return string.Concat(Enumerable.Range(0, 16).Select(_ => rng.Next(10).ToString()));
}
