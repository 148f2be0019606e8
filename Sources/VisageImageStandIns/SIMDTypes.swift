// The simd module's names that Vision's API uses. Apple's simd defines them as these same generic types.
public typealias simd_float2 = SIMD2<Float>
public typealias vector_float2 = SIMD2<Float>
