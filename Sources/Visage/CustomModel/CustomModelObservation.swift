import Foundation

/// A custom model's result on one crop of the picture: the raw outputs, the crop, and the face it was
/// run on (for ``CustomModelRequest/Region/faces(_:)``).
public struct CustomModelObservation: Sendable {
    /// Every output tensor, in the model's order.
    public var outputs: [ModelOutput]
    /// The part of the upright picture that filled the input.
    public var crop: ModelCrop
    /// The input tensor's size.
    public var inputWidth: Int
    public var inputHeight: Int
    /// The upright picture's size.
    public var imageWidth: Int
    public var imageHeight: Int
    /// The face whose crop this is; nil for the whole image or a region.
    public var face: FaceObservation?

    public init(
        outputs: [ModelOutput], crop: ModelCrop, inputWidth: Int, inputHeight: Int, imageWidth: Int, imageHeight: Int,
        face: FaceObservation? = nil
    ) {
        (self.outputs, self.crop, self.inputWidth, self.inputHeight) = (outputs, crop, inputWidth, inputHeight)
        (self.imageWidth, self.imageHeight, self.face) = (imageWidth, imageHeight, face)
    }

    /// The `k` best classes of output `output`, named from `labels`.
    public func classifications(
        output: Int = 0, top k: Int = 5, labels: [String]? = nil, softmax: Bool = false
    ) throws(CustomModelError) -> [Classification] {
        guard outputs.indices.contains(output) else {
            throw .invalidParameter(name: "output", value: "\(output)", rule: "the model has \(outputs.count) outputs")
        }
        return outputs[output].topK(k, labels: labels, softmax: softmax)
    }

    /// Channel `channel` of output `output`, an `[1,] H × W × C` map over the crop, carried back onto the
    /// upright picture: each picture pixel samples the map bilinearly at its centre; pixels outside the
    /// crop are 0. A selfie-segmentation mask, say, becomes a per-pixel person probability.
    public func mask(output: Int = 0, channel: Int = 0) throws(CustomModelError) -> SegmentationMask {
        guard outputs.indices.contains(output) else {
            throw .invalidParameter(name: "output", value: "\(output)", rule: "the model has \(outputs.count) outputs")
        }
        var shape = outputs[output].shape
        if shape.count == 4, shape[0] == 1 { shape.removeFirst() }
        if shape.count == 2 { shape.append(1) }
        guard shape.count == 3, shape.allSatisfy({ $0 > 0 }) else {
            throw .invalidParameter(name: "output", value: "\(output)", rule: "shape \(outputs[output].shape) is not a map [1, height, width, channels]")
        }
        let (mapHeight, mapWidth, channels) = (shape[0], shape[1], shape[2])
        guard (0..<channels).contains(channel) else {
            throw .invalidParameter(name: "channel", value: "\(channel)", rule: "the output has \(channels) channels")
        }
        let values = outputs[output].values
        func at(_ x: Int, _ y: Int) -> Double {
            Double(values[(min(max(y, 0), mapHeight - 1) * mapWidth + min(max(x, 0), mapWidth - 1)) * channels + channel])
        }
        var result = [Float](repeating: 0, count: imageWidth * imageHeight)
        for y in 0..<imageHeight {
            for x in 0..<imageWidth {
                // Continuous map coordinates of the pixel's centre; the map spans the crop.
                let t = crop.tensorPoint(upright: SIMD2(Double(x) + 0.5, Double(y) + 0.5), tensorWidth: mapWidth, tensorHeight: mapHeight)
                guard t.x >= 0, t.y >= 0, t.x <= Double(mapWidth), t.y <= Double(mapHeight) else { continue }
                let (sx, sy) = (t.x - 0.5, t.y - 0.5)
                let (x0, y0) = (Int(sx.rounded(.down)), Int(sy.rounded(.down)))
                let (fx, fy) = (sx - Double(x0), sy - Double(y0))
                let top = at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx
                let bottom = at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx
                result[y * imageWidth + x] = Float(top * (1 - fy) + bottom * fy)
            }
        }
        return SegmentationMask(width: imageWidth, height: imageHeight, values: result)
    }
}

/// A per-pixel map over the upright picture, row-major from the top left.
public struct SegmentationMask: Sendable, Hashable {
    public var width: Int
    public var height: Int
    public var values: [Float]

    public init(width: Int, height: Int, values: [Float]) {
        (self.width, self.height, self.values) = (width, height, values)
    }

    public subscript(x: Int, y: Int) -> Float { values[y * width + x] }
}
