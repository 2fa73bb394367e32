/**
 * The private keys of the self-signed stand-in certificates of the examples
 * (`examples/manifests/certificates.yaml`), which the demo and the tests give as
 * `GWOPS_EXAMPLE_SHOP_TLS_KEY` and `GWOPS_EXAMPLE_WILDCARD_TLS_KEY`: gwops checks that a
 * certificate's private key belongs to it (src/kinds/ssl-certificate/rules.ts). They are
 * public on purpose, like the certificates, and protect nothing: never use them, or the
 * certificates, for a real host. (No file under `examples/` holds a private key.)
 */

/** PEM (PKCS#8) private key of `example-shop-tls`. */
export const EXAMPLE_SHOP_TLS_KEY =
  '-----BEGIN PRIVATE KEY-----\n' +
  'MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQCH5iiXF6RkxAPe\n' +
  'lumk3Q1f8b2b0760ZjBcERC5oQAY3nMDIZultr2lb1NkTI8AvV1BuVUFYe0hhhT4\n' +
  '4c+qeYCKeVO2gmdkyPjV+9KNgHe6C8Norzfzdg+f2SRmXDhgkl0ZxDCS8UuHBTSL\n' +
  'UoPRkxerNNA0UOpbE2tUmtn5qdN0X1rB8rcdFRslPZDLYn752fB4yJ+3PQOZ3TP5\n' +
  'AaRBkTLkX4PhcgEgFRF5PPlxSJAyLE1icI3mcQ8bTLxOQ8AYrnqhSpNVqoIExW+1\n' +
  'aVytRgOyTml/YUioZjdTvofmLugHeU1aABO+juwk/cG4zDhHo6Est6QhO28aSl9o\n' +
  'oplDEoB1AgMBAAECggEAD/IV06qyv58PTCwddJp6YgZZpuHYx86QwJDBC2LkgcaC\n' +
  'LL0iB/bx+CogmQ1xnxbZDSfrnbLQkeUra0uFpB1XE4hqZekVrCn3ppYCbdeD1Nji\n' +
  'ABPFJyQ0b59ZKciK1ev+kBIo1+kHoWtfL7TKIkpV1eEfx++xm+eiqZ300xpV5RrK\n' +
  'Ylj4rNIN8oxMpK4Oo7Ot7M2y+DwhX9UosWH39udGBKjs3X4lootxpWNtv8m0QXW8\n' +
  'kkv31A1w5e3WRknW1xMNVoPxLFssTd+NuW/Tit1APSQZAL+Ja8QgWt6AHPOa34h7\n' +
  'dqjXT48c6sfCNECSEfMFlsf0gi6h5W9SZzPDheS9WQKBgQC96RsUpQlFm+1qKZHn\n' +
  'jEQ3hs/NHcg60xk6OYBLlwhw40wHHTDy5mxjz5bQS6D/jO9LkhcZc5jnuq9Ja3lg\n' +
  'rQymUwgo0iL3VcE3nVmfyhUH/PUslUz5GLDbtvp3GtJC8OdXGniMtgqYcn3LIBCM\n' +
  'eo1KGcNx8XsGI+Qfq46jyqbGmQKBgQC3MTwjvr2Q9A+ePUChW1jtwPR+eaBomYnb\n' +
  'WhhknROiVppOmlteLxpejVL+vEGvQEquKz/XcF0PzabwMpf/wuzHXI6UatUlbWVt\n' +
  'AIxHycFpwXBNyi1GAUvFbZ0oQgMn7yIlSKH4SvXIoJu+xGKbVGdxuMZ2C7nZW/aU\n' +
  'WNdg1lFePQKBgHPBwcL8scEfQUCjpA66Xd5mqwVA8QqCH+9wmzX4EqoUsgPoFC0K\n' +
  'rOjN4QSIBNOgCUBMBQ57eqlNDok3HF4EPSConeGb7LpMKCEJJVcTq2waESuiua9g\n' +
  'EHVsfBDbZWxuQOTD+tTyJVU0/F4y5kNqc/LF727lnXJpsCRpwuEtpiiJAoGBALAq\n' +
  'QaoiMAvoF+jVAITq4k7ownWpos9T71Uog9Kllw8C9yrllz2wUExi3VAoW4YbbnWl\n' +
  'E6Sq4mNjIclU7gS/P5HL+TTSs5xlYib7YutaIov/wG6eIQF0F5iI+5uON5i8hvqR\n' +
  'qWirNUa05HEES8sR1NRwmzFDv3o9zJcGBECUePUFAoGBAIyZEMT5MVJX38oe+Nnc\n' +
  'TPIjBGmiNU2YSo/jchq6EUE7mPeA01/dir7bfCg+BdVGvoNWJsTa59vW14um0rzW\n' +
  '+YCwab71LaJdx6InqvslykAi5elUuCJv+YJ1AZtqzOl9ZQZ/kiGelQy45qflGdvr\n' +
  'L+uzzYsu6S2Gx/OMgzUCgJEZ\n' +
  '-----END PRIVATE KEY-----\n';

/** PEM (PKCS#8) private key of `example-wildcard-tls`. */
export const EXAMPLE_WILDCARD_TLS_KEY =
  '-----BEGIN PRIVATE KEY-----\n' +
  'MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQC5GkV8fFT90ZAU\n' +
  'Qh5zWBG9D/kPBeclGQD4riu+3xFaiMoBYPKZTGIZvBq03Qd+0ehjKg8acKqqTIiI\n' +
  'mutxar2hHKrTSmdOlMq5zz/T9Bi4prZ4jrOfxuJ2bgQg7/2VTyXaHspF2oyVUJES\n' +
  'hd2+BS1o4p2eHehhncrd7+sKJdIulqVkWLGiUW7y3MhSjdSzf9mgbv9sjPm4NmRa\n' +
  'RhxMrny3HqJaX85km7uw4ESLLkdn+4N5Dsm/by7nua26W+SSetenDZVTBYdknyli\n' +
  'eNr4Job+vY3dOU7h7lhsXHJMYGhbvFP6KiSW7A4H+erJQ5u2oLAPdEwSrH+t44TX\n' +
  '43viZgcHAgMBAAECggEAFNgUgxQtLffvVZisfSiptrSZw0tS4CaUqWxTmMbd2WgV\n' +
  '91nHd+PWGDfKeht5wJo6pRATa1LMpSjBJ0DqynbOq9nikrCKOZsfyRTBh0ixj/mW\n' +
  'CrVnHNL0pYl2BY+A6tNi29EjzgHyWs4byA4zDjbfCjSaszeC95shQSTHPvlLVduH\n' +
  'ZMjwqpK1VRgfqy+f1RMPhEIg5/mHTUOIioVNf6FOO7epbX6VbK8M1MPeBbe+PkQh\n' +
  'SdhoN7uFIg+ho+E43AKzCOlcLRaGZvCJisdlR4NRiUt9PQuW5XrS+fzSn/Ngdagf\n' +
  '8Ruq+rdP7NnRabBQZYkSbEAMG7V2wp4Zu46zqnEKoQKBgQD9WxtjSWeCJ1gUP0si\n' +
  'mLe92rkRY54IzkzHLOwBywcit5TUnpt0Pkfe1I0bCwaT8MTN4oCgaa4GO4tzOdTS\n' +
  'LjRm0r98Q0rMD+iH8xdVO51zl+P4UPKGTClA+jzvhgCSadEyBNTGw6BfGWCCrnwC\n' +
  '+NI021RSscGRdLMRM2aUZqVlywKBgQC7CM/HfvQyLbSL/9wNYU6KPl55jD+U9k1Q\n' +
  'px0NJ13i6YytgKhciK/xQ4h8SAmXyLfneIaY40rFr8L7hmUNNw6OZbR1zXNKnMNh\n' +
  'E8VsPmNMaHq6TI9ahDovAXZZZkme9nohxt1Xf6/Fiw129+SGFZYmGhei8ZU77Ca6\n' +
  'El2SqllcNQKBgQDjelj15aN9VgwcadPxZUOcwHToaxQq/egr8WaaGYv3nPORkDMt\n' +
  'xPnM1fU38cdfL4/U9+jbnud0iyQjOiqe6IN+Sv1I+jZ/UE1NO3OYwKUXc6ppe2y2\n' +
  'Lk3gHI531U5QJ5iAG5xcNquYl3VzAG0yUeyTLtbgRN/y1OAusoMI/bzFzwKBgBLy\n' +
  'ZpIQE07OAH86MSGN3PX2MX3grkQ520UzWKcPeNxWynB9GxEcq64mKDpm1cnxhGfH\n' +
  'duMgC2ARWRA/4ha/oBLezLQuVuKVFNnNte8sNsTzxJMA1HjX8kj2vfV6fjTDRUYM\n' +
  'rjmB7t11I60MmbLXlvlPJVvVW0fRuW6aE66a4SiNAoGBALxJv4PXRbcEh3hzjoX2\n' +
  '9SzQ3f/6rtXEBHe3tOOcVrpsuo+fXEcaDia3JKOKinooT3GjU+gE5cX7W5AbSmAH\n' +
  'yWz1/gDsmBt0WrsJTvrdzfiOzt/Iwarfk14ErP4JTjOZ+9m2x4xW8IdcZLJPAxvC\n' +
  'icJu8eaz0i5V4H+SB2t2S2T8\n' +
  '-----END PRIVATE KEY-----\n';
