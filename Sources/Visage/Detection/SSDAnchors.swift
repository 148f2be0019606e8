/// The centre and size of one SSD anchor, in units of the detector's input (0…1).
package struct Anchor: Sendable, Hashable {
    package var xCenter: Float
    package var yCenter: Float
    package var width: Float
    package var height: Float

    package init(xCenter: Float, yCenter: Float, width: Float, height: Float) {
        (self.xCenter, self.yCenter, self.width, self.height) = (xCenter, yCenter, width, height)
    }
}

/// The options of MediaPipe's `SsdAnchorsCalculator` that the face detectors use, and the anchors they generate.
///
/// Layers that share a stride are merged into one feature map; every cell of a map gets, per merged layer,
/// one anchor per aspect ratio plus one "interpolated" anchor when `interpolatedScaleAspectRatio > 0`.
/// The face detectors use fixed-size anchors (w = h = 1), so only the centres carry information and
/// scales do not matter; they are kept out of this type for that reason.
package struct SSDAnchorOptions: Sendable, Hashable {
    package var inputWidth: Int
    package var inputHeight: Int
    package var strides: [Int]
    package var aspectRatioCount: Int
    package var interpolatedScaleAspectRatio: Float
    package var anchorOffsetX: Float
    package var anchorOffsetY: Float

    package init(
        inputWidth: Int, inputHeight: Int, strides: [Int], aspectRatioCount: Int = 1,
        interpolatedScaleAspectRatio: Float, anchorOffsetX: Float = 0.5, anchorOffsetY: Float = 0.5
    ) {
        self.inputWidth = inputWidth
        self.inputHeight = inputHeight
        self.strides = strides
        self.aspectRatioCount = aspectRatioCount
        self.interpolatedScaleAspectRatio = interpolatedScaleAspectRatio
        self.anchorOffsetX = anchorOffsetX
        self.anchorOffsetY = anchorOffsetY
    }

    /// The anchors in the order the model emits its boxes: feature map by feature map, row-major,
    /// then the anchors of one cell.
    package func anchors() -> [Anchor] {
        var anchors: [Anchor] = []
        var layer = 0
        while layer < strides.count {
            let stride = strides[layer]
            var perCell = 0
            var last = layer
            while last < strides.count, strides[last] == stride {
                perCell += aspectRatioCount + (interpolatedScaleAspectRatio > 0 ? 1 : 0)
                last += 1
            }
            // ceil(input / stride), as MediaPipe computes it.
            let mapWidth = (inputWidth + stride - 1) / stride
            let mapHeight = (inputHeight + stride - 1) / stride
            anchors.reserveCapacity(anchors.count + mapWidth * mapHeight * perCell)
            for y in 0..<mapHeight {
                for x in 0..<mapWidth {
                    let xCenter = (Float(x) + anchorOffsetX) / Float(mapWidth)
                    let yCenter = (Float(y) + anchorOffsetY) / Float(mapHeight)
                    for _ in 0..<perCell {
                        anchors.append(Anchor(xCenter: xCenter, yCenter: yCenter, width: 1, height: 1))
                    }
                }
            }
            layer = last
        }
        return anchors
    }
}
